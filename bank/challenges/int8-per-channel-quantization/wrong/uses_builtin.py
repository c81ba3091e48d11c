# expect: Rule Violation
import torch


def quantize_per_channel(w):
    amax = w.abs().amax(dim=1)
    scale = torch.where(amax > 0, amax / 127, torch.ones_like(amax))
    qt = torch.quantize_per_channel(w, scale, torch.zeros(w.shape[0], dtype=torch.long), 0, torch.qint8)
    return qt.int_repr().clamp(-127, 127), scale


def dequantize_per_channel(q, scale):
    return q.to(scale.dtype) * scale[:, None]


def quantized_linear(x, q, scale, bias=None):
    y = x @ dequantize_per_channel(q, scale).T
    return y if bias is None else y + bias
