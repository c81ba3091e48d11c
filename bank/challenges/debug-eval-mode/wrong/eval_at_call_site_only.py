# expect: Wrong Answer
import torch
import torch.nn.functional as F


def evaluate(model, x, y):
    # unchanged: whoever calls evaluate() directly (outside fit) still validates in training mode
    with torch.no_grad():
        logits = model(x)
        loss = F.cross_entropy(logits, y).item()
        accuracy = (logits.argmax(dim=1) == y).double().mean().item()
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
        model.eval()  # the fix is made here only
        history.append(evaluate(model, val_x, val_y))
        model.train()
    return history
