# expect: Wrong Answer
import math

import torch
import torch.nn as nn


class GRUCell(nn.Module):
    def __init__(self, input_size, hidden_size, bias=True):
        super().__init__()
        self.input_size, self.hidden_size = input_size, hidden_size
        self.weight_ih = nn.Parameter(torch.empty(3 * hidden_size, input_size))   # rows: r, z, n
        self.weight_hh = nn.Parameter(torch.empty(3 * hidden_size, hidden_size))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(3 * hidden_size))
            self.bias_hh = nn.Parameter(torch.empty(3 * hidden_size))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        bound = 1.0 / math.sqrt(hidden_size)
        for p in self.parameters():
            nn.init.uniform_(p, -bound, bound)

    def forward(self, x, h=None):
        if h is None:
            h = torch.zeros(x.shape[0], self.hidden_size, dtype=x.dtype, device=x.device)
        gi = x @ self.weight_ih.T  # both biases folded into the input side
        gh = h @ self.weight_hh.T
        if self.bias_ih is not None:
            gi = gi + self.bias_ih + self.bias_hh  # b_hn ends up outside r * (...)
        i_r, i_z, i_n = gi.chunk(3, dim=1)
        h_r, h_z, h_n = gh.chunk(3, dim=1)
        r = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)          # r multiplies (W_hn h + b_hn), bias included
        return (1 - z) * n + z * h


def gru_sequence(cell, xs, h=None):
    outs = []
    for x in xs:                               # xs: (T, B, input_size), time first
        h = cell(x, h)
        outs.append(h)
    return torch.stack(outs), h
