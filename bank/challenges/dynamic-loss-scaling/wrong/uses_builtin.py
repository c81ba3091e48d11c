# expect: Rule Violation
from functools import partial

import torch

GradScaler = partial(torch.amp.GradScaler, "cpu")
