# expect: Wrong Answer
import copy

import torch


class ModelEMA:
    def __init__(self, model, decay=0.999):
        self.module = copy.deepcopy(model)  # still in train mode: BatchNorm uses batch statistics
        self.decay = decay
        self.num_updates = 0

    @torch.no_grad()
    def update(self, model):
        n = self.num_updates
        d = min(self.decay, (1 + n) / (10 + n))
        self.num_updates += 1
        current = model.state_dict()
        for name, avg in self.module.state_dict().items():
            if avg.is_floating_point():
                avg.mul_(d).add_(current[name], alpha=1 - d)
            else:
                avg.copy_(current[name])
