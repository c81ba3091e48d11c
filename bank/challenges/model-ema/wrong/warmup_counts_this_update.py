# expect: Wrong Answer
import copy

import torch


class ModelEMA:
    def __init__(self, model, decay=0.999):
        self.module = copy.deepcopy(model).eval()
        for p in self.module.parameters():
            p.requires_grad_(False)
        self.decay = decay
        self.num_updates = 0

    @torch.no_grad()
    def update(self, model):
        self.num_updates += 1
        n = self.num_updates  # counts the current update too: the first d is 2/11, not 1/10
        d = min(self.decay, (1 + n) / (10 + n))
        current = model.state_dict()
        for name, avg in self.module.state_dict().items():  # parameters and buffers, sharing storage
            if avg.is_floating_point():
                avg.mul_(d).add_(current[name].detach(), alpha=1 - d)
            else:
                avg.copy_(current[name])
