# expect: Wrong Answer
def train_step(model, optimizer, loss_fn, x, y, micro_batch_size):
    total = 0.0
    for xb, yb in zip(x.split(micro_batch_size), y.split(micro_batch_size)):
        optimizer.zero_grad()  # wipes what the previous micro-batches accumulated
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / x.shape[0])
        loss.backward()
        total += loss.item()
    optimizer.step()
    return total
