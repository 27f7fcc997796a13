import torch
import torch.nn as nn
import torch.nn.functional as F


class PointNetCls(nn.Module):
    def __init__(self, k=5):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 16, 1)
        self.conv2 = nn.Conv1d(16, 32, 1)
        self.fc1 = nn.Linear(32, 16)
        self.fc2 = nn.Linear(16, k)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.conv2(x)
        x = torch.max(x, 2, keepdim=True)[0].view(-1, 32)
        x = self.fc2(F.relu(self.fc1(x)))
        return F.log_softmax(x, dim=1)


def train_step(model, opt, points, target):
    opt.zero_grad()
    pred = model(points)
    loss = F.nll_loss(pred, target)
    loss.backward()
    opt.step()
    return loss.item()


def accuracy(model, points, target):
    with torch.no_grad():
        pred_choice = model(points).max(1)[1]
    return pred_choice.eq(target).float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PointNetCls(k=5)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    points = torch.randn(8, 3, 64)
    target = torch.randint(0, 5, (8,))
    with torch.no_grad():
        logits = model.fc2(F.relu(model.fc1(model.conv2(F.relu(model.conv1(points))).max(2)[0])))
        ref = sum(-torch.log_softmax(logits[i], 0)[target[i]] for i in range(8)) / 8
        ref_choice = logits.argmax(1)
        pred_choice = model(points).max(1)[1]
    loss = train_step(model, opt, points, target)
    assert abs(loss - ref.item()) < 1e-5
    assert torch.equal(pred_choice, ref_choice)
    assert abs(accuracy(model, points, target) - sum(int(model(points[i:i + 1]).argmax()) == int(target[i]) for i in range(8)) / 8) < 1e-6
    print("ok")
