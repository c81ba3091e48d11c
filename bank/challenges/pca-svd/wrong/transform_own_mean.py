# expect: Wrong Answer
import torch


def pca(x, n_components):
    n = x.shape[0]
    mean = x.mean(dim=0)
    xc = x - mean
    _, s, vh = torch.linalg.svd(xc, full_matrices=False)
    var = s**2 / (n - 1)
    comps = vh[:n_components]
    idx = comps.abs().argmax(dim=1, keepdim=True)
    comps = comps * torch.sign(comps.gather(1, idx))
    return mean, comps, var[:n_components], var[:n_components] / var.sum(), xc @ comps.T


def transform(x, mean, components):
    return (x - x.mean(dim=0)) @ components.T  # re-centres new data on its own mean
