# expect: Wrong Answer
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def evaluate(model, dataset, batch_size):
    # equal batches at last, by silently skipping the samples of the short one
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=False, drop_last=True)
    model.eval()
    losses, accuracies = [], []
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            losses.append(F.cross_entropy(logits, y).item())
            accuracies.append((logits.argmax(dim=1) == y).double().mean().item())
    return {"loss": sum(losses) / len(losses), "accuracy": sum(accuracies) / len(accuracies)}
