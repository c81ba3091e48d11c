import torch
import torch.nn.functional as F


def evaluate(model, x, y):
    was_training = model.training
    model.eval()  # dropout off, BatchNorm uses (and does not update) its running statistics
    with torch.no_grad():
        logits = model(x)
        loss = F.cross_entropy(logits, y).item()
        accuracy = (logits.argmax(dim=1) == y).double().mean().item()
    model.train(was_training)
    return {"loss": loss, "accuracy": accuracy}


def fit(model, batches, val_x, val_y, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    history = []
    for x, y in batches:
        model.train()  # every training step runs in training mode, whatever ran before it
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        history.append(evaluate(model, val_x, val_y))
    return history
