"""The parts of Grafana's classic dashboard JSON model the shipped dashboards use, as strict models.

Written from Grafana's published dashboard JSON model (the "Dashboard kind" schema reference): field
names, types and constraints such as `gridPos.w` in 1..24 and `uid` at most 40 characters. Unknown keys
are rejected, so a misspelt field fails here instead of being silently ignored by Grafana.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(extra='forbid', strict=True)


class DataSourceRef(_Strict):
    type: str
    uid: str


class GridPos(_Strict):
    h: Annotated[int, Field(gt=0)]
    w: Annotated[int, Field(gt=0, le=24)]
    x: Annotated[int, Field(ge=0, lt=24)]
    y: Annotated[int, Field(ge=0)]

    @model_validator(mode='after')
    def _fits(self) -> GridPos:
        if self.x + self.w > 24:
            raise ValueError(f'panel overflows the 24-column grid: x={self.x} w={self.w}')
        return self


class Target(_Strict):
    refId: Annotated[str, Field(min_length=1)]
    datasource: DataSourceRef
    expr: Annotated[str, Field(min_length=1)]
    editorMode: Literal['code', 'builder']
    format: Literal['time_series', 'table', 'heatmap']
    instant: bool
    range: bool
    legendFormat: str


class FieldConfig(_Strict):
    defaults: dict[str, Any]
    overrides: list[dict[str, Any]]


class Panel(_Strict):
    id: Annotated[int, Field(gt=0)]
    type: Literal['timeseries', 'stat', 'bargauge', 'heatmap', 'table', 'text', 'gauge']
    title: Annotated[str, Field(min_length=1)]
    description: Annotated[str, Field(min_length=1)]
    datasource: DataSourceRef
    gridPos: GridPos
    targets: Annotated[list[Target], Field(min_length=1)]
    fieldConfig: FieldConfig
    options: dict[str, Any]
    repeat: str | None = None
    repeatDirection: Literal['h', 'v'] | None = None
    maxPerRow: int | None = None


class RowPanel(_Strict):
    id: Annotated[int, Field(gt=0)]
    type: Literal['row']
    title: str
    collapsed: bool
    panels: list[Panel]
    gridPos: GridPos
    repeat: str | None = None


class VariableOption(_Strict):
    selected: bool
    text: str
    value: str


class Variable(_Strict):
    name: Annotated[str, Field(pattern=r'^\w+$')]
    label: str
    type: Literal['query', 'datasource', 'custom', 'constant', 'interval', 'textbox', 'adhoc']
    query: str
    current: dict[str, Any]
    hide: Literal[0, 1, 2]
    includeAll: bool
    multi: bool
    options: list[VariableOption]
    description: str | None = None
    datasource: DataSourceRef | None = None
    definition: str | None = None
    refresh: Literal[0, 1, 2] | None = None
    regex: str | None = None
    sort: int | None = None
    allValue: str | None = None


class Templating(_Strict):
    list: list[Variable]


class AnnotationQuery(_Strict):
    builtIn: int
    datasource: DataSourceRef
    enable: bool
    hide: bool
    iconColor: str
    name: str
    type: str


class Annotations(_Strict):
    list: list[AnnotationQuery]


class Time(_Strict):
    from_: str = Field(alias='from')
    to: str


class Dashboard(_Strict):
    annotations: Annotations
    description: str
    editable: bool
    fiscalYearStartMonth: Annotated[int, Field(ge=0, lt=12)]
    graphTooltip: Literal[0, 1, 2]
    id: None
    links: list[dict[str, Any]]
    panels: list[Annotated[Panel | RowPanel, Field(union_mode='left_to_right')]]
    refresh: str
    schemaVersion: Annotated[int, Field(ge=36)]
    tags: list[str]
    templating: Templating
    time: Time
    timepicker: dict[str, Any]
    timezone: str
    title: Annotated[str, Field(min_length=1)]
    uid: Annotated[str, Field(min_length=1, max_length=40, pattern=r'^[A-Za-z0-9_-]+$')]
    version: int
    weekStart: str
