# expect: Wrong Answer
import torch


def pca(x, n_components):
    n = x.shape[0]
    mean = x.mean(dim=0)
    u, s, vh = torch.linalg.svd(x - mean, full_matrices=False)
    var = s**2 / (n - 1)
    comps = vh[:n_components]
    idx = comps.abs().argmax(dim=1, keepdim=True)
    comps = comps * torch.sign(comps.gather(1, idx))
    scores = u[:, :n_components] * s[:n_components]  # U S uses the SVD's own signs, not the flipped ones
    return mean, comps, var[:n_components], var[:n_components] / var.sum(), scores


def transform(x, mean, components):
    return (x - mean) @ components.T
