# expect: Wrong Answer
# uses the group's own min and max: for an all-positive group the zero point would be negative and is clamped
import torch


def quantize_int4(w, group_size):
    out, inp = w.shape
    g = w.reshape(out, inp // group_size, group_size)  # contiguous input columns form a group
    lo = g.amin(dim=-1)  # min/max of the group only
    hi = g.amax(dim=-1)
    flat = hi == lo  # only an all-zero group
    scale = torch.where(flat, torch.ones_like(hi), (hi - lo) / 15)
    zero = torch.where(flat, torch.zeros_like(lo), torch.round(-lo / scale).clamp(0, 15))
    q = (torch.round(g / scale[..., None]) + zero[..., None]).clamp(0, 15)
    return q.reshape(out, inp).to(torch.uint8), scale, zero.to(torch.uint8)


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
