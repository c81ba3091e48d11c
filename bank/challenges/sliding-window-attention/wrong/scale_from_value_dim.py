# expect: Wrong Answer
import torch


def sliding_window_attention(q, k, v, window, scale=None):
    L, S = q.size(-2), k.size(-2)
    scale = v.size(-1) ** -0.5 if scale is None else scale  # head dim taken from v
    att = (q @ k.transpose(-2, -1)) * scale
    qpos = torch.arange(S - L, S)[:, None]
    kpos = torch.arange(S)[None, :]
    keep = (kpos <= qpos) & (kpos > qpos - window)
    att = att.masked_fill(~keep, float("-inf"))
    return torch.softmax(att, dim=-1) @ v
