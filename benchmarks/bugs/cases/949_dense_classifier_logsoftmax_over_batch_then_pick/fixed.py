import torch
import torch.nn as nn

torch.manual_seed(0)

net = nn.Sequential(
    nn.Flatten(),
    nn.Linear(784, 10),
    nn.LogSoftmax(dim=1),
)


def train_epoch(model, batches, lr=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    total = 0.0
    for images, labels in batches:
        log_probs = model(images)
        picked = log_probs.gather(1, labels.view(-1, 1)).squeeze(1)
        loss = -picked.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total / len(batches)


batches = [(torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(3)]
train_epoch(net, batches)
with torch.no_grad():
    images, labels = batches[0]
    log_probs = net(images)
    picked = log_probs.gather(1, labels.view(-1, 1)).squeeze(1)
    logits = net[1](net[0](images))
    for i in range(images.shape[0]):
        row = logits[i]
        ref = row[int(labels[i])] - torch.logsumexp(row, dim=0)
        assert torch.allclose(picked[i], ref, atol=1e-5)
        assert abs(log_probs[i].exp().sum().item() - 1.0) < 1e-5
print("ok")
