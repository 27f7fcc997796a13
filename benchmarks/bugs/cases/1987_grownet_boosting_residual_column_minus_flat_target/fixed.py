import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore")


class MLP_2HL(nn.Module):
    def __init__(self, dim_in, dim_hidden1, dim_hidden2):
        super().__init__()
        self.in_layer = nn.Linear(dim_in, dim_hidden1)
        self.hidden_layer = nn.Linear(dim_hidden1, dim_hidden2)
        self.out_layer = nn.Linear(dim_hidden2, 1)
        self.relu = nn.ReLU()

    def forward(self, x, lower_f):
        if lower_f is not None:
            x = torch.cat([x, lower_f], dim=1)
        middle_feat = self.relu(self.hidden_layer(self.relu(self.in_layer(x))))
        out = self.out_layer(middle_feat)
        return middle_feat, out

    @classmethod
    def get_model(cls, stage, d_in, hidden):
        dim_in = d_in if stage == 0 else d_in + hidden
        return cls(dim_in, hidden, hidden)


class DynamicNet(nn.Module):
    def __init__(self, c0, lr):
        super().__init__()
        self.models = []
        self.c0 = c0
        self.lr = lr
        self.boost_rate = nn.Parameter(torch.tensor(lr, requires_grad=True, device="cpu"))

    def add(self, model):
        self.models.append(model)

    def forward(self, x):
        if len(self.models) == 0:
            return None, self.c0
        middle_feat_cum = None
        prediction = None
        with torch.no_grad():
            for m in self.models:
                if middle_feat_cum is None:
                    middle_feat_cum, prediction = m(x, middle_feat_cum)
                else:
                    middle_feat_cum, pred = m(x, middle_feat_cum)
                    prediction += pred
        return middle_feat_cum, self.c0 + self.boost_rate * prediction


class GrowNetMethod:
    def __init__(self, d_in, hidden=16, num_nets=2, boost_rate=1.0, lr=1e-3):
        self.d_in, self.hidden, self.num_nets = d_in, hidden, num_nets
        self.boost_rate, self.lr = boost_rate, lr
        self.loss_f1 = torch.nn.MSELoss()

    def fit(self, X, y):
        c0 = y.mean().item()
        self.model = DynamicNet(c0, self.boost_rate)
        stage_losses = []
        for stage in range(self.num_nets):
            m = MLP_2HL.get_model(stage, self.d_in, self.hidden).double()
            optimizer = torch.optim.Adam(m.parameters(), self.lr)
            middle_feat, out = self.model.forward(X)
            out = torch.as_tensor(out, dtype=torch.float64).view(-1, 1)
            grad_direction = -(out - y.view(-1, 1))
            _, out = m(X, middle_feat)
            out = torch.as_tensor(out, dtype=torch.float64).view(-1, 1)
            loss = self.loss_f1(self.model.boost_rate * out, grad_direction)
            m.zero_grad()
            loss.backward()
            optimizer.step()
            self.model.add(m)
            stage_losses.append((loss.item(), tuple(grad_direction.shape), out.detach()))
        return stage_losses


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.randn(64, 8, dtype=torch.float64)
    y = X[:, 0] * 2.0 - X[:, 1] + 0.1 * torch.randn(64, dtype=torch.float64)  # regression labels
    method = GrowNetMethod(d_in=8)
    stage_losses = method.fit(X, y)
    # reference: each weak learner regresses the residual of its own sample only
    model = method.model
    with torch.no_grad():
        _, first_pred = model.models[0](X, None)
        ensemble = [[model.c0] * len(y), [model.c0 + model.boost_rate.item() * first_pred[i, 0].item() for i in range(len(y))]]
    for stage, (loss, target_shape, out) in enumerate(stage_losses):
        assert target_shape == (len(y), 1)
        br = method.boost_rate
        expected = sum((br * out[i, 0].item() - (y[i].item() - ensemble[stage][i])) ** 2 for i in range(len(y))) / len(y)
        assert abs(loss - expected) < 1e-9, (stage, loss, expected)
    print("ok")
