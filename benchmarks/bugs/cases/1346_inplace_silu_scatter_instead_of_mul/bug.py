import torch
import torch.nn as nn

ACTIVATION_LAYERS = {}


def register_activation(name):
    def _register(cls):
        ACTIVATION_LAYERS[name] = cls
        return cls
    return _register


register_activation('ReLU')(nn.ReLU)


@register_activation('SiLU')
class SiLU(nn.Module):
    """Sigmoid Weighted Liner Unit, for torch versions without nn.SiLU."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, inputs):
        if self.inplace:
            return inputs.scatter_(torch.sigmoid(inputs))
        else:
            return inputs * torch.sigmoid(inputs)


def build_activation_layer(cfg):
    cfg = dict(cfg)
    layer_type = cfg.pop('type')
    return ACTIVATION_LAYERS[layer_type](**cfg)


class ConvModule(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 act_cfg=dict(type='ReLU')):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)
        self.activate = build_activation_layer(act_cfg)

    def forward(self, x):
        return self.activate(self.bn(self.conv(x)))


class CSPStem(nn.Module):
    def __init__(self, act_cfg):
        super().__init__()
        self.stem = nn.Sequential(
            ConvModule(3, 16, 3, stride=2, padding=1, act_cfg=act_cfg),
            ConvModule(16, 32, 3, stride=2, padding=1, act_cfg=act_cfg),
        )

    def forward(self, x):
        return self.stem(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CSPStem(act_cfg=dict(type='SiLU', inplace=True)).eval()
    images = torch.randn(2, 3, 64, 64)
    with torch.no_grad():
        feats = model(images)
    print("stem output:", tuple(feats.shape))
