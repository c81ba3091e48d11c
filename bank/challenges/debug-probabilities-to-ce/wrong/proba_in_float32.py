# expect: Wrong Answer
import torch
import torch.nn as nn


def build_model(d_in, hidden, n_classes):
    # the model outputs logits: CrossEntropyLoss applies log-softmax itself
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))


def predict_proba(model, x):
    with torch.no_grad():
        return torch.softmax(model(x).float(), dim=1)  # float32: not the model's dtype


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss()
    losses = []
    for x, y in batches:
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
