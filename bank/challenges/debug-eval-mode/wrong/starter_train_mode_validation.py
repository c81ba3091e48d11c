# expect: Wrong Answer
import torch
import torch.nn.functional as F


def evaluate(model, x, y):
    """Validation loss and accuracy of `model` on (x, y)."""
    with torch.no_grad():
        logits = model(x)
        loss = F.cross_entropy(logits, y).item()
        accuracy = (logits.argmax(dim=1) == y).double().mean().item()
    return {"loss": loss, "accuracy": accuracy}


def fit(model, batches, val_x, val_y, lr):
    """One SGD step per (x, y) batch; validate after every step. Returns the validation history."""
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    history = []
    for x, y in batches:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        history.append(evaluate(model, val_x, val_y))
    return history
