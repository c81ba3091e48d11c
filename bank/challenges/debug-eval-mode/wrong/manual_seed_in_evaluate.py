# expect: Wrong Answer
import torch
import torch.nn.functional as F


def evaluate(model, x, y):
    # "make validation deterministic" by re-seeding: dropout is still on (and need not even use
    # the global RNG), and BatchNorm still uses and updates batch statistics
    torch.manual_seed(0)
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
        history.append(evaluate(model, val_x, val_y))
    return history

