-- English names of the seeded dictionaries, for databases seeded before the column existed.
UPDATE "dict" SET dict_value_en = 'Sex' WHERE code = 'sex' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Male' WHERE code = 'sex' AND dict_key = '1' AND dict_value = '男' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Female' WHERE code = 'sex' AND dict_key = '2' AND dict_value = '女' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Unknown' WHERE code = 'sex' AND dict_key = '3' AND dict_value = '未知' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Yes or no' WHERE code = 'yes_no' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'No' WHERE code = 'yes_no' AND dict_key = '0' AND dict_value = '否' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Yes' WHERE code = 'yes_no' AND dict_key = '1' AND dict_value = '是' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Menu type' WHERE code = 'menu_category' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Menu' WHERE code = 'menu_category' AND dict_key = '1' AND dict_value = '菜单' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Button' WHERE code = 'menu_category' AND dict_key = '2' AND dict_value = '按钮' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Button action' WHERE code = 'button_func' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Toolbar' WHERE code = 'button_func' AND dict_key = '1' AND dict_value = '工具栏' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Row' WHERE code = 'button_func' AND dict_key = '2' AND dict_value = '操作栏' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Toolbar and row' WHERE code = 'button_func' AND dict_key = '3' AND dict_value = '工具操作栏' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Data scope type' WHERE code = 'data_scope_type' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'All' WHERE code = 'data_scope_type' AND dict_key = '1' AND dict_value = '全部' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Own records' WHERE code = 'data_scope_type' AND dict_key = '2' AND dict_value = '本人' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Own department' WHERE code = 'data_scope_type' AND dict_key = '3' AND dict_value = '本部门' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Own department and below' WHERE code = 'data_scope_type' AND dict_key = '4' AND dict_value = '本部门及以下' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Custom' WHERE code = 'data_scope_type' AND dict_key = '5' AND dict_value = '自定义' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'API scope type' WHERE code = 'api_scope_type' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'System API' WHERE code = 'api_scope_type' AND dict_key = '1' AND dict_value = '系统接口' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Business API' WHERE code = 'api_scope_type' AND dict_key = '2' AND dict_value = '业务接口' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Post category' WHERE code = 'post_category' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Senior' WHERE code = 'post_category' AND dict_key = '1' AND dict_value = '高层' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Middle' WHERE code = 'post_category' AND dict_key = '2' AND dict_value = '中层' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Junior' WHERE code = 'post_category' AND dict_key = '3' AND dict_value = '基层' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Other' WHERE code = 'post_category' AND dict_key = '4' AND dict_value = '其他' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Organisation type' WHERE code = 'org_category' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Company' WHERE code = 'org_category' AND dict_key = '1' AND dict_value = '公司' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Department' WHERE code = 'org_category' AND dict_key = '2' AND dict_value = '部门' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Team' WHERE code = 'org_category' AND dict_key = '3' AND dict_value = '小组' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Notice type' WHERE code = 'notice' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Announcement' WHERE code = 'notice' AND dict_key = '1' AND dict_value = '发布通知' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Forwarded for approval' WHERE code = 'notice' AND dict_key = '2' AND dict_value = '批转通知' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Forwarded' WHERE code = 'notice' AND dict_key = '3' AND dict_value = '转发通知' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Instruction' WHERE code = 'notice' AND dict_key = '4' AND dict_value = '指示通知' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Appointment' WHERE code = 'notice' AND dict_key = '5' AND dict_value = '任免通知' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Administrative' WHERE code = 'notice' AND dict_key = '6' AND dict_value = '事务通知' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Process type' WHERE code = 'flow' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Leave' WHERE code = 'flow' AND dict_key = '1' AND dict_value = '请假流程' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Expenses' WHERE code = 'flow' AND dict_key = '2' AND dict_value = '报销流程' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Object storage type' WHERE code = 'oss' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'MinIO' WHERE code = 'oss' AND dict_key = '1' AND dict_value = 'minio' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Qiniu' WHERE code = 'oss' AND dict_key = '2' AND dict_value = '七牛云' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Aliyun' WHERE code = 'oss' AND dict_key = '3' AND dict_value = '阿里云' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Tencent Cloud' WHERE code = 'oss' AND dict_key = '4' AND dict_value = '腾讯云' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'SMS service type' WHERE code = 'sms' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Yunpian' WHERE code = 'sms' AND dict_key = '1' AND dict_value = '云片' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Qiniu' WHERE code = 'sms' AND dict_key = '2' AND dict_value = '七牛云' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Aliyun' WHERE code = 'sms' AND dict_key = '3' AND dict_value = '阿里云' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Tencent Cloud' WHERE code = 'sms' AND dict_key = '4' AND dict_value = '腾讯云' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Region level' WHERE code = 'region_level' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Province' WHERE code = 'region_level' AND dict_key = '1' AND dict_value = '省份' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'City' WHERE code = 'region_level' AND dict_key = '2' AND dict_value = '地市' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'District' WHERE code = 'region_level' AND dict_key = '3' AND dict_value = '区县' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Town' WHERE code = 'region_level' AND dict_key = '4' AND dict_value = '乡镇' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Village' WHERE code = 'region_level' AND dict_key = '5' AND dict_value = '村委' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'User status' WHERE code = 'user_status' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Active' WHERE code = 'user_status' AND dict_key = '1' AND dict_value = '正常' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Pending' WHERE code = 'user_status' AND dict_key = '2' AND dict_value = '待审核' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Disabled' WHERE code = 'user_status' AND dict_key = '3' AND dict_value = '停用' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Tenant status' WHERE code = 'tenant_status' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Active' WHERE code = 'tenant_status' AND dict_key = '1' AND dict_value = '正常' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict" SET dict_value_en = 'Disabled' WHERE code = 'tenant_status' AND dict_key = '2' AND dict_value = '停用' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Device status' WHERE code = 'device_status' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Online' WHERE code = 'device_status' AND dict_key = '1' AND dict_value = '在线' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Offline' WHERE code = 'device_status' AND dict_key = '2' AND dict_value = '离线' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Faulty' WHERE code = 'device_status' AND dict_key = '3' AND dict_value = '故障' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Device type' WHERE code = 'device_type' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Camera' WHERE code = 'device_type' AND dict_key = '1' AND dict_value = '摄像机' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'NVR' WHERE code = 'device_type' AND dict_key = '2' AND dict_value = 'NVR' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Access control' WHERE code = 'device_type' AND dict_key = '3' AND dict_value = '门禁' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Client status' WHERE code = 'client_status' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Pending' WHERE code = 'client_status' AND dict_key = '1' AND dict_value = '待审核' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Approved' WHERE code = 'client_status' AND dict_key = '2' AND dict_value = '已通过' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Rejected' WHERE code = 'client_status' AND dict_key = '3' AND dict_value = '已驳回' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Approval status' WHERE code = 'approval_status' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Pending' WHERE code = 'approval_status' AND dict_key = '0' AND dict_value = '待审批' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Approved' WHERE code = 'approval_status' AND dict_key = '1' AND dict_value = '通过' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Rejected' WHERE code = 'approval_status' AND dict_key = '2' AND dict_value = '驳回' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Sub-domain status' WHERE code = 'subdomain_status' AND dict_key = '-1' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Applied' WHERE code = 'subdomain_status' AND dict_key = '0' AND dict_value = '申请中' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Running' WHERE code = 'subdomain_status' AND dict_key = '1' AND dict_value = '已启用' AND dict_value_en IS NULL;--> statement-breakpoint
UPDATE "dict_biz" SET dict_value_en = 'Stopped' WHERE code = 'subdomain_status' AND dict_key = '2' AND dict_value = '已停用' AND dict_value_en IS NULL;
