import torch
import torch.nn as nn
import torch.nn.functional as F

IGNORE_LABEL = -1


class Data:
    def __init__(self, pos, x, y=None, category=None):
        self.pos = pos            # [B, N, 3]
        self.x = x                # [B, C, N]
        self.y = y                # [B, N]
        self.category = category  # [B, N]


class SharedMLP(nn.Module):
    def __init__(self, channels):
        super().__init__()
        layers = []
        for c_in, c_out in zip(channels[:-1], channels[1:]):
            layers += [nn.Conv1d(c_in, c_out, 1), nn.BatchNorm1d(c_out), nn.ReLU()]
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


class RSConvLogicModel(nn.Module):
    def __init__(self, in_channels, num_classes, weight_classes=None, use_category=False, num_categories=0):
        super().__init__()
        self._num_classes = num_classes
        self._weight_classes = weight_classes
        self._use_category = use_category
        self._num_categories = num_categories
        self.encoder = SharedMLP([in_channels + 3, 32, 64])
        self.global_mlp = SharedMLP([64, 128])
        last = 64 + 128 + (num_categories if use_category else 0)
        self.FC_layer = nn.Sequential(
            nn.Conv1d(last, 64, 1), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.5),
            nn.Conv1d(64, num_classes, 1),
        )

    def set_input(self, data):
        self.input = data
        if data.y is not None:
            self.labels = torch.flatten(data.y).long()  # [B*N]
        else:
            self.labels = data.y
        self.batch_idx = torch.arange(0, data.pos.shape[0]).view(-1, 1).repeat(1, data.pos.shape[1]).view(-1)
        if self._use_category:
            self.category = data.category

    def forward(self):
        data = self.input
        feats = torch.cat([data.pos.transpose(1, 2), data.x], dim=1)          # [B, 3 + C, N]
        local = self.encoder(feats)                                          # [B, 64, N]
        glob = self.global_mlp(local).max(dim=-1, keepdim=True)[0]           # [B, 128, 1]
        last_feature = torch.cat([local, glob.repeat(1, 1, local.shape[-1])], dim=1)

        if self._use_category:
            cat_one_hot = F.one_hot(self.category, self._num_categories).float().transpose(1, 2)
            last_feature = torch.cat((last_feature, cat_one_hot), dim=1)

        self.output = self.FC_layer(last_feature).transpose(1, 2).contiguous().view((-1, self._num_classes))  # [B*N, K]

        if self._weight_classes is not None:
            self._weight_classes = self._weight_classes.to(self.output.device)

        if self.labels is not None:
            self.loss_seg = F.cross_entropy(self.output, self.labels, weight=self._weight_classes)

        self.data_visual = self.input
        self.data_visual.y = torch.reshape(self.labels, data.pos.shape[0:2])
        self.data_visual.pred = torch.max(self.output, -1)[1].reshape(data.pos.shape[0:2])
        return self.output


if __name__ == "__main__":
    torch.manual_seed(0)
    B, N, C, K = 2, 256, 3, 5
    pos = torch.randn(B, N, 3)
    rgb = torch.rand(B, C, N)
    y = torch.randint(0, K, (B, N))
    # scene points that fall outside the annotated classes carry the dataset's ignore label
    y[0, :20] = IGNORE_LABEL
    y[1, 100:130] = IGNORE_LABEL
    weight_classes = torch.tensor([0.5, 1.0, 1.0, 2.0, 1.5])

    model = RSConvLogicModel(C, K, weight_classes=weight_classes)
    model.set_input(Data(pos, rgb, y))
    model.forward()
    model.loss_seg.backward()
    print("loss_seg", round(model.loss_seg.item(), 4))
