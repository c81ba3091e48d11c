# expect: Wrong Answer
import torch
import torch.nn as nn
import torch.nn.functional as F


def evaluate(model, x, y):
    # dropout off and BatchNorm momentum 0 so the running stats stay put: but in training mode
    # BatchNorm still normalises with the validation batch's own statistics
    saved = []
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            saved.append((m, "training", m.training))
            m.eval()
        elif isinstance(m, nn.modules.batchnorm._BatchNorm):
            saved.append((m, "momentum", m.momentum))
            m.momentum = 0.0
    with torch.no_grad():
        logits = model(x)
        loss = F.cross_entropy(logits, y).item()
        accuracy = (logits.argmax(dim=1) == y).double().mean().item()
    for m, attr, v in saved:
        if attr == "training":
            m.train(v)
        else:
            m.momentum = v
    return {"loss": loss, "accuracy": accuracy}


def fit(model, batches, val_x, val_y, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    history = []
    for x, y in batches:
        model.train()
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        history.append(evaluate(model, val_x, val_y))
    return history

