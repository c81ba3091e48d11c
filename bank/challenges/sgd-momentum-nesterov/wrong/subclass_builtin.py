# expect: Rule Violation
import torch


class SGD(torch.optim.SGD):
    pass
