# expect: Rule Violation
import torch


class Value:
    def __init__(self, data):
        self.t = torch.tensor(float(data), dtype=torch.float64, requires_grad=True)
