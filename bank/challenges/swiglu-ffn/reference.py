import torch.nn as nn
import torch.nn.functional as F


def swiglu_hidden_dim(dim, multiple_of, ffn_dim_multiplier=None):
    hidden = int(2 * (4 * dim) / 3)  # keep the parameter count of a 4*dim two-matrix MLP
    if ffn_dim_multiplier is not None:
        hidden = int(ffn_dim_multiplier * hidden)
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)  # round up


class SwiGLU(nn.Module):
    def __init__(self, dim, multiple_of=256, ffn_dim_multiplier=None):
        super().__init__()
        hidden = swiglu_hidden_dim(dim, multiple_of, ffn_dim_multiplier)
        self.w1 = nn.Linear(dim, hidden, bias=False)  # gate
        self.w2 = nn.Linear(hidden, dim, bias=False)  # down
        self.w3 = nn.Linear(dim, hidden, bias=False)  # up

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))
