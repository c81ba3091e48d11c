# expect: Wrong Answer
import torch
import torch.nn.functional as F


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


class _MaxPool(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, s, p):
        ctx.k, ctx.s, ctx.p, ctx.size = k, s, p, x.shape[-2:]
        xp = F.pad(x, (p[1], p[1], p[0], p[0]), value=float("-inf"))
        win = xp.unfold(2, k[0], s[0]).unfold(3, k[1], s[1])
        return win.flatten(-2).amax(dim=-1)

    @staticmethod
    def backward(ctx, gy):
        # spreads each output's gradient evenly over its window (that is avg-pool's backward)
        n, c, ho, wo = gy.shape
        cols = (gy / (ctx.k[0] * ctx.k[1])).reshape(n, c, 1, ho * wo).expand(n, c, ctx.k[0] * ctx.k[1], ho * wo)
        gx = F.fold(cols.reshape(n, -1, ho * wo), ctx.size, ctx.k, padding=ctx.p, stride=ctx.s)
        return gx, None, None, None


def max_pool2d(x, kernel_size, stride=None, padding=0):
    k = _pair(kernel_size)
    return _MaxPool.apply(x, k, _pair(kernel_size if stride is None else stride), _pair(padding))
