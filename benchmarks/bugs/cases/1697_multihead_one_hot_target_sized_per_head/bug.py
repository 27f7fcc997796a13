import torch
import torch.nn as nn
import torch.nn.functional as F

MODEL_CFG = {
    'SEPARATE_MULTIHEAD': True,
    'RPN_HEAD_CFGS': [{'HEAD_CLS_NAME': ['Car']}, {'HEAD_CLS_NAME': ['Pedestrian', 'Cyclist']}],
    'NUM_ANCHORS_PER_LOCATION': {'Car': 2, 'Pedestrian': 2, 'Cyclist': 2},
}
DATA_CFG = {'BATCH_SIZE': 2, 'NUM_BEV_FEATURES': 16, 'GRID_SIZE': (4, 4)}

class SingleHead(nn.Module):
    def __init__(self, input_channels, num_class, num_anchors_per_location):
        super().__init__()
        self.num_class = num_class
        self.conv_cls = nn.Conv2d(input_channels, num_anchors_per_location * num_class, kernel_size=1)

    def forward(self, spatial_features_2d):
        cls_preds = self.conv_cls(spatial_features_2d).permute(0, 2, 3, 1).contiguous()
        return cls_preds.view(spatial_features_2d.shape[0], -1, self.num_class)

class AnchorHeadMulti(nn.Module):
    def __init__(self, model_cfg, input_channels, class_names):
        super().__init__()
        self.num_class = len(class_names)
        self.separate_multihead = model_cfg.get('SEPARATE_MULTIHEAD', False)
        self.rpn_heads = nn.ModuleList([
            SingleHead(input_channels, len(cfg['HEAD_CLS_NAME']) if self.separate_multihead else self.num_class,
                       sum(model_cfg['NUM_ANCHORS_PER_LOCATION'][n] for n in cfg['HEAD_CLS_NAME']))
            for cfg in model_cfg['RPN_HEAD_CFGS']
        ])

    def forward(self, spatial_features_2d):
        return [rpn_head(spatial_features_2d) for rpn_head in self.rpn_heads]

    def get_cls_layer_loss(self, cls_preds, box_cls_labels):
        cared, positives = box_cls_labels >= 0, box_cls_labels > 0
        cls_weights = cared.float() / torch.clamp(positives.sum(1, keepdim=True).float(), min=1.0)
        cls_targets = box_cls_labels * cared.type_as(box_cls_labels)
        one_hot_targets = torch.zeros(
            *list(cls_targets.shape), cls_preds[0].shape[-1] + 1 if self.separate_multihead else self.num_class + 1,
            dtype=cls_preds[0].dtype, device=cls_targets.device
        )
        one_hot_targets.scatter_(-1, cls_targets.unsqueeze(dim=-1).long(), 1.0)
        one_hot_targets = one_hot_targets[..., 1:]
        start_idx = c_idx = cls_losses = 0
        for idx, cls_pred in enumerate(cls_preds):
            cur_num_class = self.rpn_heads[idx].num_class
            if self.separate_multihead:
                one_hot_target = one_hot_targets[:, start_idx:start_idx + cls_pred.shape[1], c_idx:c_idx + cur_num_class]
                c_idx += cur_num_class
            else:
                one_hot_target = one_hot_targets[:, start_idx:start_idx + cls_pred.shape[1]]
            cls_weight = cls_weights[:, start_idx:start_idx + cls_pred.shape[1]]
            cls_loss_src = F.binary_cross_entropy_with_logits(cls_pred, one_hot_target, reduction='none')
            cls_losses += (cls_loss_src * cls_weight.unsqueeze(-1)).sum() / cls_pred.shape[0]
            start_idx += cls_pred.shape[1]
        return cls_losses

def make_batch(data_cfg, model_cfg):
    features = torch.randn(data_cfg['BATCH_SIZE'], data_cfg['NUM_BEV_FEATURES'], *data_cfg['GRID_SIZE'])
    labels, first_class = [], 1
    for head_cfg in model_cfg['RPN_HEAD_CFGS']:
        names = head_cfg['HEAD_CLS_NAME']
        num_anchors = features[0, 0].numel() * sum(model_cfg['NUM_ANCHORS_PER_LOCATION'][n] for n in names)
        head_labels = torch.randint(0, len(names) + 1, (data_cfg['BATCH_SIZE'], num_anchors))
        labels.append(torch.where(head_labels > 0, head_labels + first_class - 1, head_labels))
        first_class += len(names)
    box_cls_labels = torch.cat(labels, dim=1)
    box_cls_labels[torch.rand(box_cls_labels.shape) < 0.1] = -1
    return features, box_cls_labels

if __name__ == '__main__':
    torch.manual_seed(0)
    head = AnchorHeadMulti(MODEL_CFG, DATA_CFG['NUM_BEV_FEATURES'], ['Car', 'Pedestrian', 'Cyclist'])
    features, box_cls_labels = make_batch(DATA_CFG, MODEL_CFG)
    cls_preds = head(features)
    loss = head.get_cls_layer_loss(cls_preds, box_cls_labels)
    print('rpn_loss_cls:', round(loss.item(), 4))
