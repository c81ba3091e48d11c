import torch


def pca(x: torch.Tensor, n_components: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                                      torch.Tensor]:
    """Return (mean, components, explained_variance, explained_variance_ratio, scores)."""
    raise NotImplementedError


def transform(x: torch.Tensor, mean: torch.Tensor, components: torch.Tensor) -> torch.Tensor:
    raise NotImplementedError
