# expect: Wrong Answer
import torch


def pca(x, n_components):
    n = x.shape[0]
    mean = x.mean(dim=0)
    _, s, vh = torch.linalg.svd(x, full_matrices=False)  # SVD of the raw data: the mean leaks into PC 1
    var = s**2 / (n - 1)
    comps = vh[:n_components]
    idx = comps.abs().argmax(dim=1, keepdim=True)
    comps = comps * torch.sign(comps.gather(1, idx))
    return mean, comps, var[:n_components], var[:n_components] / var.sum(), (x - mean) @ comps.T


def transform(x, mean, components):
    return (x - mean) @ components.T
