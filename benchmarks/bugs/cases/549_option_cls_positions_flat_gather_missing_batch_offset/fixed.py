import torch
from torch import nn


class OptionScorer(nn.Module):
    """Scores every option of a prompt of the form ``[CLS] opt_1 [CLS] opt_2 ... [SEP] text``.

    Args:
        vocab_size (int): size of the token vocabulary.
        hidden_size (int): encoder width ``H``.
    """

    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.pos = nn.Embedding(64, hidden_size)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(hidden_size, nhead=2, dim_feedforward=32, batch_first=True), 1)
        self.score = nn.Linear(hidden_size, 1)

    def option_states(self, sequence_output, cls_positions):
        """Collect the hidden state of each option's [CLS] marker.

        Args:
            sequence_output (Tensor): ``(B, L, H)`` encoder output.
            cls_positions (LongTensor): ``(B, K)`` position of the k-th option marker inside its sequence.

        Returns:
            Tensor: ``(B, K, H)``.
        """
        batch_size, seq_len, hidden = sequence_output.shape
        flat_sequence_output = sequence_output.reshape(batch_size * seq_len, hidden)
        offsets = torch.arange(batch_size, device=cls_positions.device).unsqueeze(1) * seq_len
        flat_positions = (cls_positions + offsets).reshape(-1)
        cls_output = flat_sequence_output.index_select(0, flat_positions)
        return cls_output.view(batch_size, -1, hidden)

    def forward(self, input_ids, cls_positions):
        """input_ids: ``(B, L)``; cls_positions: ``(B, K)`` -> option logits ``(B, K)``."""
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        hidden = self.encoder(self.embed(input_ids) + self.pos(positions))
        return self.score(self.option_states(hidden, cls_positions)).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = OptionScorer(vocab_size=50, hidden_size=8).eval()
    input_ids = torch.randint(3, 50, (3, 12))
    cls_positions = torch.tensor([[0, 3, 6], [0, 2, 5], [0, 4, 7]])
    input_ids.scatter_(1, cls_positions, 1)  # token id 1 = [CLS]
    with torch.no_grad():
        logits = model(input_ids, cls_positions)
    with torch.no_grad():
        positions = torch.arange(12)
        hidden = model.encoder(model.embed(input_ids) + model.pos(positions))
        states = model.option_states(hidden, cls_positions)
    for b in range(3):
        for k in range(3):
            assert torch.equal(states[b, k], hidden[b, int(cls_positions[b, k])])
            ref = model.score(hidden[b, int(cls_positions[b, k])]).item()
            assert abs(logits[b, k].item() - ref) < 1e-5
    print("ok")
