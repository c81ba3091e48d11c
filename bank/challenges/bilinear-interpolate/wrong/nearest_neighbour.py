# expect: Wrong Answer
import torch


def bilinear_resize(x, size, align_corners=False):
    h_out, w_out = size
    h_in, w_in = x.shape[-2:]
    if align_corners:
        ys = (torch.arange(h_out) * ((h_in - 1) / max(h_out - 1, 1))).round().long()
        xs = (torch.arange(w_out) * ((w_in - 1) / max(w_out - 1, 1))).round().long()
    else:
        ys = ((torch.arange(h_out) + 0.5) * (h_in / h_out) - 0.5).round().clamp(0, h_in - 1).long()
        xs = ((torch.arange(w_out) + 0.5) * (w_in / w_out) - 0.5).round().clamp(0, w_in - 1).long()
    return x[..., ys, :][..., xs]  # rounds to the nearest pixel: no interpolation weights
