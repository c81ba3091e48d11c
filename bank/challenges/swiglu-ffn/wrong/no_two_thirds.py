# expect: Wrong Answer
import torch.nn as nn
import torch.nn.functional as F


def swiglu_hidden_dim(dim, multiple_of, ffn_dim_multiplier=None):
    hidden = 4 * dim  # the plain MLP size, without the 2/3 that keeps the parameter count
    if ffn_dim_multiplier is not None:
        hidden = int(ffn_dim_multiplier * hidden)
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)


class SwiGLU(nn.Module):
    def __init__(self, dim, multiple_of=256, ffn_dim_multiplier=None):
        super().__init__()
        hidden = swiglu_hidden_dim(dim, multiple_of, ffn_dim_multiplier)
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))
