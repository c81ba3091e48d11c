# expect: Rule Violation
import torch


def sliding_window_attention(q, k, v, window, scale=None):
    L, S = q.size(-2), k.size(-2)
    qpos = torch.arange(S - L, S)[:, None]
    kpos = torch.arange(S)[None, :]
    keep = (kpos <= qpos) & (kpos > qpos - window)
    sdpa = getattr(torch.nn.functional, "scaled_dot_product_attention")  # noqa: B009 - hides the name from a source scan
    return sdpa(q, k, v, attn_mask=keep, scale=scale)
