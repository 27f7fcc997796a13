import torch
import torch.nn as nn
import torch.nn.functional as F


def make_pad_mask(lengths, maxlen=None):
    """Make mask for padded parts.

    Args:
        lengths (LongTensor): Batch of lengths (B,).
        maxlen (int): Length of the mask, defaults to max(lengths).

    Returns:
        BoolTensor: Mask of shape (B, maxlen), True at padded positions.
    """
    maxlen = int(lengths.max()) if maxlen is None else maxlen
    seq_range = torch.arange(maxlen, device=lengths.device).unsqueeze(0)
    return seq_range >= lengths.unsqueeze(1)


def make_non_pad_mask(lengths, maxlen=None):
    return ~make_pad_mask(lengths, maxlen)


class TransformerLoss(nn.Module):
    """Loss function module for Transformer-TTS."""

    def __init__(self, use_masking=True, bce_pos_weight=5.0):
        super().__init__()
        self.use_masking = use_masking
        self.bce_pos_weight = bce_pos_weight

    def forward(self, after_outs, before_outs, logits, ys, labels, olens):
        """Calculate forward propagation.

        Args:
            after_outs (Tensor): Batch of outputs after postnets (B, Lmax, odim).
            before_outs (Tensor): Batch of outputs before postnets (B, Lmax, odim).
            logits (Tensor): Batch of stop logits (B, Lmax).
            ys (Tensor): Batch of padded target features (B, Lmax, odim).
            labels (Tensor): Batch of the sequences of stop token labels (B, Lmax).
            olens (LongTensor): Batch of the lengths of each target (B,).

        Returns:
            Tensor: L1 loss value, MSE loss value, binary cross entropy loss value,
            and the flat stop labels the BCE was computed on (sum(olens),).
        """
        if self.use_masking:
            masks = make_non_pad_mask(olens).unsqueeze(-1)
            ys = ys.masked_select(masks)
            after_outs = after_outs.masked_select(masks)
            before_outs = before_outs.masked_select(masks)
            labels = labels.masked_select(masks[:, :, 0])
            logits = logits.masked_select(masks[:, :, 0])

        l1_loss = F.l1_loss(after_outs, ys) + F.l1_loss(before_outs, ys)
        mse_loss = F.mse_loss(after_outs, ys) + F.mse_loss(before_outs, ys)
        bce_loss = F.binary_cross_entropy_with_logits(
            logits, labels, pos_weight=torch.tensor(self.bce_pos_weight, device=ys.device))
        return l1_loss, mse_loss, bce_loss, labels


class Transformer(nn.Module):
    """Transformer-TTS decoder head: predicts reduction_factor frames per step and a stop logit per frame."""

    def __init__(self, idim, odim, adim=16, reduction_factor=2):
        super().__init__()
        self.odim = odim
        self.reduction_factor = reduction_factor
        self.embed = nn.Embedding(idim, adim)
        self.feat_out = nn.Linear(adim, odim * reduction_factor)
        self.prob_out = nn.Linear(adim, reduction_factor)
        self.postnet = nn.Linear(odim, odim)
        self.criterion = TransformerLoss()

    def _forward(self, xs, ilens, olens):
        """xs (B, Tmax) -> after_outs, before_outs (B, Lmax', odim) and logits (B, Lmax')."""
        hs = self.embed(xs).mean(dim=1, keepdim=True)
        steps = int(olens.max()) // self.reduction_factor
        zs = hs.expand(-1, steps, -1)
        before_outs = self.feat_out(zs).view(zs.size(0), -1, self.odim)
        logits = self.prob_out(zs).view(zs.size(0), -1)
        after_outs = before_outs + self.postnet(before_outs)
        return after_outs, before_outs, logits

    def forward(self, text, text_lengths, feats, feats_lengths):
        """text (B, Tmax), feats (B, Lmax, odim), feats_lengths (B,) -> losses."""
        ys = feats
        olens = feats_lengths

        # make labels for stop prediction
        labels = make_pad_mask(olens - 1).to(ys.device, ys.dtype)
        labels = F.pad(labels, [0, 1], "constant", 1.0)

        # modifiy mod part of groundtruth
        if self.reduction_factor > 1:
            assert olens.ge(self.reduction_factor).all(), "Output length must be greater than or equal to reduction factor."
            olens = olens.new([olen - olen % self.reduction_factor for olen in olens])
            max_olen = max(olens)
            ys = ys[:, :max_olen]
            labels = labels[:, :max_olen]
            labels[:, -1] = 1.0  # make sure at least one frame has 1

        after_outs, before_outs, logits = self._forward(text, text_lengths, olens)
        return self.criterion(after_outs, before_outs, logits, ys, labels, olens), olens


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Transformer(idim=30, odim=4, reduction_factor=2)
    text = torch.randint(1, 30, (3, 5))
    text_lengths = torch.tensor([5, 4, 5])
    feats_lengths = torch.tensor([9, 6, 7])
    feats = torch.randn(3, int(feats_lengths.max()), 4)

    (l1, mse, bce, flat_labels), olens = model(text, text_lengths, feats, feats_lengths)
    for utt, chunk in enumerate(flat_labels.split(olens.tolist())):
        print(f"utterance {utt}: {olens[utt].item()} frames, stop labels {chunk.long().tolist()}")
    print("bce:", bce.item())
