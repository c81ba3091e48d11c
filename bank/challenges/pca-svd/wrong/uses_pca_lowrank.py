# expect: Rule Violation
import torch


def pca(x, n_components):
    n = x.shape[0]
    mean = x.mean(dim=0)
    _, s, v = torch.pca_lowrank(x, q=min(x.shape), center=True, niter=10)
    var = s**2 / (n - 1)
    comps = v[:, :n_components].T
    idx = comps.abs().argmax(dim=1, keepdim=True)
    comps = comps * torch.sign(comps.gather(1, idx))
    return mean, comps, var[:n_components], var[:n_components] / var.sum(), (x - mean) @ comps.T


def transform(x, mean, components):
    return (x - mean) @ components.T
