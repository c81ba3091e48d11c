# expect: Runtime Error
import torch
import torch.nn.functional as F


def evaluate(model, batches):
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)  # no graph, but never undone: the next training step has no gradients
    total_loss, correct, n = 0.0, 0, 0
    all_probs = []
    for x, y in batches:
        logits = model(x)
        probs = torch.softmax(logits, dim=1)
        total_loss += F.cross_entropy(logits, y, reduction="sum").item()
        correct += (probs.argmax(dim=1) == y).sum().item()
        n += y.numel()
        all_probs.append(probs)
    return {"loss": total_loss / n, "accuracy": correct / n, "probs": torch.cat(all_probs)}
