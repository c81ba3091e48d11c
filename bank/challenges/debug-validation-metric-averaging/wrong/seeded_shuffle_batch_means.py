# expect: Wrong Answer
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def evaluate(model, dataset, batch_size):
    # a seeded shuffle makes two runs agree, but the mean of batch means is still not the
    # mean over samples when the last batch is short
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, generator=torch.Generator().manual_seed(0))
    model.eval()
    losses, accuracies = [], []
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            losses.append(F.cross_entropy(logits, y).item())
            accuracies.append((logits.argmax(dim=1) == y).double().mean().item())
    return {"loss": sum(losses) / len(losses), "accuracy": sum(accuracies) / len(accuracies)}
