# expect: Runtime Error
import torch


def _source(n_in, n_out, align_corners, device):
    d = torch.arange(n_out, dtype=torch.float64, device=device)
    if align_corners:
        src = d * ((n_in - 1) / (n_out - 1))  # ZeroDivisionError for a 1-pixel output
    else:
        src = ((d + 0.5) * (n_in / n_out) - 0.5).clamp_min(0.0)      # half-pixel centres, clamped at 0
    i0 = src.floor().long().clamp_max(n_in - 1)
    i1 = (i0 + 1).clamp_max(n_in - 1)                                # right/bottom border: both neighbours equal
    return i0, i1, src - i0


def bilinear_resize(x, size, align_corners=False):
    h_out, w_out = size
    y0, y1, ly = _source(x.shape[-2], h_out, align_corners, x.device)
    x0, x1, lx = _source(x.shape[-1], w_out, align_corners, x.device)
    ly, lx = ly.to(x.dtype)[:, None], lx.to(x.dtype)
    top = x[..., y0, :] * (1 - ly) + x[..., y1, :] * ly                # (N, C, H_out, W_in)
    return top[..., x0] * (1 - lx) + top[..., x1] * lx                 # (N, C, H_out, W_out)
