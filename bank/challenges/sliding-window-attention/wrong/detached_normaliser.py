# expect: Wrong Answer
import torch


def sliding_window_attention(q, k, v, window, scale=None):
    L, S = q.size(-2), k.size(-2)
    scale = q.size(-1) ** -0.5 if scale is None else scale
    att = (q @ k.transpose(-2, -1)) * scale
    qpos = torch.arange(S - L, S)[:, None]
    kpos = torch.arange(S)[None, :]
    keep = (kpos <= qpos) & (kpos > qpos - window)
    att = att.masked_fill(~keep, float("-inf"))
    m = att.amax(dim=-1, keepdim=True).detach()
    e = (att - m).exp()
    p = e / e.sum(dim=-1, keepdim=True).detach()  # treated as a constant like the max: the gradient is wrong
    return p @ v
