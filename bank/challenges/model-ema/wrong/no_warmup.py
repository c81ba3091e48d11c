# expect: Wrong Answer
import copy

import torch


class ModelEMA:
    def __init__(self, model, decay=0.999):
        self.module = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        d = self.decay  # no warmup: with 0.999 the average stays at the initialisation
        current = model.state_dict()
        for name, avg in self.module.state_dict().items():
            if avg.is_floating_point():
                avg.mul_(d).add_(current[name], alpha=1 - d)
            else:
                avg.copy_(current[name])
