import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TextConnector(nn.Module):
    """Refines left-padded text-encoder states; padding slots are replaced by learned registers."""

    def __init__(self, dim: int, num_registers: int):
        super().__init__()
        self.num_registers = num_registers
        self.learnable_registers = nn.Parameter(torch.randn(num_registers, dim))
        self.proj = nn.Linear(dim, dim)

    def replace_padding_with_registers(
        self,
        hidden_states: Float[Tensor, "batch seq dim"],
        attention_mask: Int[Tensor, "batch seq"],
    ) -> Float[Tensor, "batch seq dim"]:
        batch_size, seq_len, _ = hidden_states.shape
        if seq_len % self.num_registers != 0:
            raise ValueError("sequence length must be a multiple of the number of registers")
        repeats = seq_len // self.num_registers
        registers = self.learnable_registers.unsqueeze(0).expand(repeats, -1, -1).reshape(seq_len, -1)

        mask = attention_mask.unsqueeze(-1).to(hidden_states.dtype)
        registers_expanded = registers.unsqueeze(0).expand(batch_size, -1, -1)
        hidden_states = mask * hidden_states + (1 - mask) * registers_expanded
        # move the prompt tokens to the front, registers to the back
        hidden_states = torch.flip(hidden_states, dims=[1])
        return hidden_states

    def forward(
        self,
        hidden_states: Float[Tensor, "batch seq dim"],
        attention_mask: Int[Tensor, "batch seq"],
    ) -> Float[Tensor, "batch seq dim"]:
        hidden_states = self.replace_padding_with_registers(hidden_states, attention_mask)
        return self.proj(hidden_states)


def left_pad(token_states: list[Tensor], seq_len: int):
    dim = token_states[0].size(-1)
    out = torch.zeros(len(token_states), seq_len, dim)
    mask = torch.zeros(len(token_states), seq_len, dtype=torch.long)
    for b, s in enumerate(token_states):
        out[b, seq_len - s.size(0):] = s
        mask[b, seq_len - s.size(0):] = 1
    return out, mask


if __name__ == "__main__":
    torch.manual_seed(0)
    dim, seq_len = 8, 8
    connector = TextConnector(dim, num_registers=4)
    prompts = [torch.randn(3, dim), torch.randn(6, dim)]
    hidden, mask = left_pad(prompts, seq_len)
    with torch.no_grad():
        laid_out = connector.replace_padding_with_registers(hidden, mask)

    def label(vec, b):
        for t in range(prompts[b].size(0)):
            if torch.allclose(vec, prompts[b][t]):
                return f"tok{t}"
        for r in range(4):
            if torch.allclose(vec, connector.learnable_registers[r]):
                return f"reg{r}"
        return "?"

    for b in range(2):
        print(f"row {b}:", [label(laid_out[b, p], b) for p in range(seq_len)])
