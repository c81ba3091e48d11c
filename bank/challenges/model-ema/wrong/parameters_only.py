# expect: Wrong Answer
import copy

import torch


class ModelEMA:
    def __init__(self, model, decay=0.999):
        self.module = copy.deepcopy(model).eval()
        self.decay = decay
        self.num_updates = 0

    @torch.no_grad()
    def update(self, model):
        n = self.num_updates
        d = min(self.decay, (1 + n) / (10 + n))
        self.num_updates += 1
        # buffers (BatchNorm running statistics) are never updated
        for avg, cur in zip(self.module.parameters(), model.parameters()):
            avg.mul_(d).add_(cur, alpha=1 - d)
