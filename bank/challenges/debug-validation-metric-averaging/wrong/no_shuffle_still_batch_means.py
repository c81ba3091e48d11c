# expect: Wrong Answer
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def evaluate(model, dataset, batch_size):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=False)  # deterministic now...
    model.eval()
    losses, accuracies = [], []
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            losses.append(F.cross_entropy(logits, y).item())
            accuracies.append((logits.argmax(dim=1) == y).double().mean().item())
    # ...but the short last batch still weighs as much as a full one
    return {"loss": sum(losses) / len(losses), "accuracy": sum(accuracies) / len(accuracies)}
