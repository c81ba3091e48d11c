# expect: Wrong Answer
# reshapes to (out, group_size, G): each group is a strided set of columns, not a contiguous block
import torch


def quantize_int4(w, group_size):
    out, inp = w.shape
    g = w.reshape(out, group_size, inp // group_size).transpose(1, 2)  # columns j, j+G, j+2G, ... form a group
    lo = g.amin(dim=-1).clamp(max=0.0)  # the range always contains 0
    hi = g.amax(dim=-1).clamp(min=0.0)
    flat = hi == lo  # only an all-zero group
    scale = torch.where(flat, torch.ones_like(hi), (hi - lo) / 15)
    zero = torch.where(flat, torch.zeros_like(lo), torch.round(-lo / scale))
    q = (torch.round(g / scale[..., None]) + zero[..., None]).clamp(0, 15)
    return q.transpose(1, 2).reshape(out, inp).to(torch.uint8), scale, zero.to(torch.uint8)


def pack_int4(q):
    return q[:, 0::2] | (q[:, 1::2] << 4)  # even column in the low nibble, odd column in the high nibble


def unpack_int4(packed):
    low, high = packed & 0xF, packed >> 4
    return torch.stack([low, high], dim=-1).reshape(packed.shape[0], -1)


def dequantize_int4(packed, scale, zero, group_size):
    q = unpack_int4(packed)
    out, inp = q.shape
    g = q.reshape(out, inp // group_size, group_size).to(scale.dtype)  # subtract in float, not in uint8
    return ((g - zero[..., None].to(scale.dtype)) * scale[..., None]).reshape(out, inp)
