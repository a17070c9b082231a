"""The read guard: refuse whole-file reads and `cat`-style dumps before they run, and say what to use instead.

```python
from pydantic_ai import Agent

from observable_harness.read_guard import ReadGuard, ReadTool, ShellTool

agent = Agent('test', capabilities=[ReadGuard(read_tools=[ReadTool('read_file')], shell_tools=[ShellTool('bash')])])
```
"""

from __future__ import annotations

from ._decision import GuardDecision
from ._guard import ReadGuard, ReadTool, ShellTool

__all__ = ['GuardDecision', 'ReadGuard', 'ReadTool', 'ShellTool']
