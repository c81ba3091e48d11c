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
        current = model.state_dict()
        for name, avg in self.module.state_dict().items():
            if avg.is_floating_point():
                avg.mul_(1 - d).add_(current[name], alpha=d)  # the decay weights the new value
            else:
                avg.copy_(current[name])
