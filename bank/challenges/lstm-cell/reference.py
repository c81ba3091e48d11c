import math

import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size, bias=True):
        super().__init__()
        self.input_size, self.hidden_size = input_size, hidden_size
        self.weight_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size))   # rows: i, f, g, o
        self.weight_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(4 * hidden_size))
            self.bias_hh = nn.Parameter(torch.empty(4 * hidden_size))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        bound = 1.0 / math.sqrt(hidden_size)
        for p in self.parameters():
            nn.init.uniform_(p, -bound, bound)

    def forward(self, x, state=None):
        if state is None:
            z = torch.zeros(x.shape[0], self.hidden_size, dtype=x.dtype, device=x.device)
            state = (z, z)
        h, c = state
        gates = x @ self.weight_ih.T + h @ self.weight_hh.T
        if self.bias_ih is not None:
            gates = gates + self.bias_ih + self.bias_hh
        i, f, g, o = gates.chunk(4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


def lstm_sequence(cell, xs, state=None):
    outs = []
    for x in xs:                      # xs: (T, B, input_size), time first
        state = cell(x, state)
        outs.append(state[0])
    return torch.stack(outs), state
