# expect: Rule Violation
import torch
import torch.nn.functional as F


def sliding_window_attention(q, k, v, window, scale=None):
    L, S = q.size(-2), k.size(-2)
    qpos = torch.arange(S - L, S)[:, None]
    kpos = torch.arange(S)[None, :]
    keep = (kpos <= qpos) & (kpos > qpos - window)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep, scale=scale)
