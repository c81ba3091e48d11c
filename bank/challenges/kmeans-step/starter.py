import torch


def kmeans_step(x: torch.Tensor, centroids: torch.Tensor):
    """One Lloyd iteration. x (N, D), centroids (K, D).

    Returns (assignments (N,) int64, new_centroids (K, D), inertia 0-dim tensor).
    """
    raise NotImplementedError
