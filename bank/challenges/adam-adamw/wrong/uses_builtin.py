# expect: Rule Violation
from torch.optim import Adam, AdamW  # noqa: F401
