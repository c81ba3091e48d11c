# expect: Wrong Answer
import torch


class RoundSTE:  # not autograd.Functions: plain tensor code that autograd differentiates
    @staticmethod
    def apply(x):
        return x + (torch.round(x) - x).detach()


class Clamp:
    @staticmethod
    def apply(x, lo, hi):
        return torch.clamp(x, lo, hi)


class SiLU:
    @staticmethod
    def apply(x):
        return x * torch.sigmoid(x)
