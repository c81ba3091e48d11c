# expect: Wrong Answer
import torch


def pca(x, n_components):
    n = x.shape[0]
    mean = x.mean(dim=0)
    # cov = (sum x x^T - n mean mean^T) / (n - 1): exact algebra, catastrophic cancellation in float32
    cov = (x.T @ x - n * torch.outer(mean, mean)) / (n - 1)
    evals, evecs = torch.linalg.eigh(cov)
    evals, evecs = evals.flip(0), evecs.flip(1)
    comps = evecs[:, :n_components].T
    idx = comps.abs().argmax(dim=1, keepdim=True)
    comps = comps * torch.sign(comps.gather(1, idx))
    return mean, comps, evals[:n_components], evals[:n_components] / evals.sum(), (x - mean) @ comps.T


def transform(x, mean, components):
    return (x - mean) @ components.T
