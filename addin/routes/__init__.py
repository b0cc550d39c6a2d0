"""The routes into Excel: the xlwings Lite bundle (``addin.routes.lite``), the Lite
code inside a workbook (``addin.routes.embed``), the classic add-in's set-up
(``addin.routes.install``). The add-in's UDF module stays ``addin.xlwings_udfs``."""
