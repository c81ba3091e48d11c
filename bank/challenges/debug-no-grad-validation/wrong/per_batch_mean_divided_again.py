# expect: Wrong Answer
import torch
import torch.nn.functional as F


@torch.no_grad()  # validation never calls backward: record no graph, save no activations
def evaluate(model, batches):
    model.eval()
    total_loss, correct, n = 0.0, 0, 0
    all_probs = []
    for x, y in batches:
        logits = model(x)
        probs = torch.softmax(logits, dim=1)
        total_loss += F.cross_entropy(logits, y).item()  # a batch mean, later divided by the sample count again
        correct += (probs.argmax(dim=1) == y).sum().item()
        n += y.numel()
        all_probs.append(probs)
    return {"loss": total_loss / n, "accuracy": correct / n, "probs": torch.cat(all_probs)}
