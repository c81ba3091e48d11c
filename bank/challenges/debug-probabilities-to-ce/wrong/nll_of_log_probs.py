# expect: Wrong Answer
import torch
import torch.nn as nn
import torch.nn.functional as F


def build_model(d_in, hidden, n_classes):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, n_classes), nn.Softmax(dim=1))


def predict_proba(model, x):
    with torch.no_grad():
        return model(x)


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for x, y in batches:
        opt.zero_grad()
        # right formula, unstable: a probability that underflows to 0 gives log(0) = -inf
        loss = F.nll_loss(torch.log(model(x)), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
