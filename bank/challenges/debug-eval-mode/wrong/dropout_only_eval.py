# expect: Wrong Answer
import torch
import torch.nn as nn
import torch.nn.functional as F


def evaluate(model, x, y):
    # turns off dropout only: BatchNorm still normalises with the validation batch and
    # folds it into its running statistics
    dropouts = [m for m in model.modules() if isinstance(m, nn.Dropout)]
    for m in dropouts:
        m.eval()
    with torch.no_grad():
        logits = model(x)
        loss = F.cross_entropy(logits, y).item()
        accuracy = (logits.argmax(dim=1) == y).double().mean().item()
    for m in dropouts:
        m.train()
    return {"loss": loss, "accuracy": accuracy}


def fit(model, batches, val_x, val_y, lr):
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
