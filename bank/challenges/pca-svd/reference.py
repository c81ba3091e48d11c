import torch


def pca(x, n_components):
    n = x.shape[0]
    mean = x.mean(dim=0)
    xc = x - mean  # centre first: PCA describes variance around the mean
    _, s, vh = torch.linalg.svd(xc, full_matrices=False)  # rows of vh: principal axes, s descending
    var = s**2 / (n - 1)  # unbiased: eigenvalues of the sample covariance xc^T xc / (n - 1)
    comps = vh[:n_components]
    idx = comps.abs().argmax(dim=1, keepdim=True)  # first entry of largest |value| in each row
    comps = comps * torch.sign(comps.gather(1, idx))  # make that entry positive
    explained = var[:n_components]
    ratio = explained / var.sum()  # total variance of all directions = trace of the covariance
    return mean, comps, explained, ratio, xc @ comps.T


def transform(x, mean, components):
    return (x - mean) @ components.T  # new data is centred with the *training* mean
